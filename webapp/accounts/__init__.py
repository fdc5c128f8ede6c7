"""Accounts: users and their roles, passwords, browser logins and API tokens, the login throttle, and the
audit log. No Flask here; webapp/web/access.py applies them to requests."""
