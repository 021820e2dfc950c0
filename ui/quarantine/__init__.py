"""The Quarantines area: bite reports, quarantine orders, exams and events (city code 58-527)."""
