"""the fencing check as a function the action insert calls (Postgres only)

``uno_fence(room, node, epoch)`` returns ``epoch`` when ``node`` still owns ``room`` at that
epoch, share-locking the room's row until the commit, and otherwise raises SQLSTATE UF001.
The store's one-statement commit of action rows (app/persistence/fast_lane.py) writes each
row's epoch through it, so a node that lost a room is refused by the insert itself, in the
insert's round trip.  SQLite needs nothing: several nodes need Postgres.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01 02:00:00
"""

from __future__ import annotations

from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

_FENCE = """
CREATE OR REPLACE FUNCTION uno_fence(room text, node text, held integer) RETURNS integer
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM 1 FROM rooms WHERE code = room AND owner = node AND epoch = held FOR SHARE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'room % is not held by node % at epoch %', room, node, held USING ERRCODE = 'UF001';
    END IF;
    RETURN held;
END
$$
"""


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(_FENCE)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP FUNCTION IF EXISTS uno_fence(text, text, integer)")
