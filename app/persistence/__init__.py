"""SQL persistence: SQLAlchemy 2 models, Alembic migrations, and a group-committing store."""
