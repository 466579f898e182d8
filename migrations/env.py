import logging
from logging.config import fileConfig

from alembic import context
from flask import current_app
from sqlalchemy import text

# this is the Alembic Config object, which provides
# access to the values within the .ini file in use.
config = context.config

# Interpret the config file for Python logging.
# This line sets up loggers basically.
# Keep loggers configured by the app (and by pytest) working while migrations run.
fileConfig(config.config_file_name, disable_existing_loggers=False)
logger = logging.getLogger('alembic.env')
# The PostgreSQL advisory lock taken while migrations run (any fixed bigint will do).
MIGRATION_LOCK_KEY = 7_175_697_261_707_021


def get_engine():
    # Flask-SQLAlchemy 3: the default engine (with the app's SQLite pragmas attached).
    return current_app.extensions['migrate'].db.engine


def get_engine_url():
    try:
        return get_engine().url.render_as_string(hide_password=False).replace(
            '%', '%%')
    except AttributeError:
        return str(get_engine().url).replace('%', '%%')


# add your model's MetaData object here
# for 'autogenerate' support
# from myapp import mymodel
# target_metadata = mymodel.Base.metadata
config.set_main_option('sqlalchemy.url', get_engine_url())
target_db = current_app.extensions['migrate'].db

# other values from the config, defined by the needs of env.py,
# can be acquired:
# my_important_option = config.get_main_option("my_important_option")
# ... etc.


def get_metadata():
    if hasattr(target_db, 'metadatas'):
        return target_db.metadatas[None]
    return target_db.metadata


def run_migrations_offline():
    """Run migrations in 'offline' mode.

    This configures the context with just a URL
    and not an Engine, though an Engine is acceptable
    here as well.  By skipping the Engine creation
    we don't even need a DBAPI to be available.

    Calls to context.execute() here emit the given string to the
    script output.

    """
    url = config.get_main_option("sqlalchemy.url")
    context.configure(
        url=url, target_metadata=get_metadata(), literal_binds=True
    )

    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online():
    """Run migrations in 'online' mode.

    In this scenario we need to create an Engine
    and associate a connection with the context.

    """

    # this callback is used to prevent an auto-migration from being generated
    # when there are no changes to the schema
    # reference: http://alembic.zzzcomputing.com/en/latest/cookbook.html
    def process_revision_directives(context, revision, directives):
        if getattr(config.cmd_opts, 'autogenerate', False):
            script = directives[0]
            if script.upgrade_ops.is_empty():
                directives[:] = []
                logger.info('No changes in schema detected.')

    conf_args = current_app.extensions['migrate'].configure_args
    if conf_args.get("process_revision_directives") is None:
        conf_args["process_revision_directives"] = process_revision_directives

    connectable = get_engine()

    with connectable.connect() as connection:
        context.configure(
            connection=connection,
            target_metadata=get_metadata(),
            **conf_args
        )

        failed = True
        try:
            with context.begin_transaction():
                if connection.dialect.name == 'postgresql':
                    serialize_postgresql_migrations(connection)
                context.run_migrations()
            failed = False
        finally:
            if connection.dialect.name == 'sqlite':
                restore_sqlite_foreign_keys(connection, discard=failed)


def restore_sqlite_foreign_keys(connection, *, discard):
    """A migration that copies a table others refer to turns SQLite's foreign keys off (see
    1f7b3d9e5a20); the pooled connection goes back to the app, so they are turned on again
    here, outside any transaction (where SQLite honours it), whatever the upgrade did. What a
    failed upgrade left open is rolled back (``discard``); after a good one, only the read of
    the revision can be open, and it is ended."""
    if connection.in_transaction():
        connection.rollback() if discard else connection.commit()
    connection.exec_driver_sql('PRAGMA foreign_keys=ON')
    enforced = connection.exec_driver_sql('PRAGMA foreign_keys').scalar()
    connection.commit()
    if not enforced:
        connection.invalidate()  # never hand the app a connection without them


def serialize_postgresql_migrations(connection):
    """Inside the migration's transaction: lift the app's statement timeout (a migration may
    take long, and so may waiting for another), then wait for any other `quizapp db upgrade`
    on this database. Two instances starting at once on a new database would otherwise both
    create alembic_version, and the second would fail; with the lock it reads the revision
    only after the first has committed, finds the database at head, and does nothing. The
    lock is released when this transaction ends."""
    connection.execute(text('SET LOCAL statement_timeout = 0'))
    connection.execute(text('SELECT pg_advisory_xact_lock(:key)'),
                       {'key': MIGRATION_LOCK_KEY})


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
