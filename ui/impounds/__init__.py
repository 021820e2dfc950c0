"""The pound operator's screens: impounds list, intake, the impoundment, release."""
