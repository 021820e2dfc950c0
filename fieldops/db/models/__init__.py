"""All mapped classes; importing this module registers them on ``Base.metadata``."""

from fieldops.db.models.audit import AuditChainHead, AuditEvent
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
from fieldops.db.models.licence import DogLicence
from fieldops.db.models.quarantine import (
    BiteReport,
    Quarantine,
    QuarantineCorrection,
    QuarantineEvent,
    QuarantineExam,
)
from fieldops.db.models.registry import (
    SEXES,
    SPECIES,
    Animal,
    AppSetting,
    Clinic,
    Person,
    RabiesVaccination,
    StaffUser,
)
from fieldops.db.models.saves import SaveKey
from fieldops.db.models.vicious import (
    CASE_STATUSES,
    DECLARED_STATUSES,
    ViciousCase,
    ViciousDeclaration,
    ViciousEnding,
    ViciousIncident,
    ViciousNotice,
    ViciousOutcome,
    ViciousStep,
    ViciousStepDone,
)
from fieldops.permissions import ROLES

__all__ = [
    "CASE_STATUSES",
    "DECLARED_STATUSES",
    "DISPOSITION_CODES",
    "NAMING_CONVENTION",
    "PAYMENT_KIND_CODES",
    "PAYMENT_METHOD_CODES",
    "REASON_CODES",
    "ROLES",
    "SEXES",
    "SPECIES",
    "Animal",
    "AppSetting",
    "AuditChainHead",
    "AuditEvent",
    "Base",
    "BiteReport",
    "Clinic",
    "Disposition",
    "DogLicence",
    "FeeScheduleEntry",
    "ImpoundPhoto",
    "Impoundment",
    "Payment",
    "PaymentLine",
    "Person",
    "Quarantine",
    "QuarantineCorrection",
    "QuarantineEvent",
    "QuarantineExam",
    "RabiesVaccination",
    "ReleaseEvidence",
    "SaveKey",
    "StaffUser",
    "ViciousCase",
    "ViciousDeclaration",
    "ViciousEnding",
    "ViciousIncident",
    "ViciousNotice",
    "ViciousOutcome",
    "ViciousStep",
    "ViciousStepDone",
]
