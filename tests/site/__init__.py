"""The site: pages, forms, services, history, accounts, translations, against the test database."""
