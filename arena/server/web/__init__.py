"""The Django app of ``arena serve``: accounts, invites, API tokens (models), the HTTP API
and the pages (views), their URLs exactly as the contract writes them."""
