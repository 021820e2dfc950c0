"""All mapped classes; importing this module registers them on ``Base.metadata``."""

from fieldops.db.models.audit import AuditEvent
from fieldops.db.models.base import NAMING_CONVENTION, Base
from fieldops.db.models.impound import (
    DISPOSITION_CODES,
    PAYMENT_KIND_CODES,
    PAYMENT_METHOD_CODES,
    REASON_CODES,
    Disposition,
    FeeScheduleEntry,
    Impoundment,
    ImpoundPhoto,
    Payment,
    PaymentLine,
    ReleaseEvidence,
)
from fieldops.db.models.quarantine import (
    BiteReport,
    Quarantine,
    QuarantineEvent,
    QuarantineExam,
)
from fieldops.db.models.registry import (
    ROLES,
    SEXES,
    SPECIES,
    Animal,
    Clinic,
    Person,
    RabiesVaccination,
    StaffUser,
)

__all__ = [
    "DISPOSITION_CODES",
    "NAMING_CONVENTION",
    "PAYMENT_KIND_CODES",
    "PAYMENT_METHOD_CODES",
    "REASON_CODES",
    "ROLES",
    "SEXES",
    "SPECIES",
    "Animal",
    "AuditEvent",
    "Base",
    "BiteReport",
    "Clinic",
    "Disposition",
    "FeeScheduleEntry",
    "ImpoundPhoto",
    "Impoundment",
    "Payment",
    "PaymentLine",
    "Person",
    "Quarantine",
    "QuarantineEvent",
    "QuarantineExam",
    "RabiesVaccination",
    "ReleaseEvidence",
    "StaffUser",
]
