"""The Administration area: council fee schedules (staff, clinics and backups to come)."""
