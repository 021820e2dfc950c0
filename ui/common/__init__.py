"""UI pieces shared by every area: file dialogs, document actions."""
