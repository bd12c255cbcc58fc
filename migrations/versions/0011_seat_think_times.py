"""moves sent and instant ones per player's seat in a finished match

The room counts, per seat, the moves its sender sent and those sent within an instant of the
room's last change (app/rooms/think_time.py); the match's end hands them over and the player's
history line keeps them, for the ratings' by-hand check (app/persistence/farm_guard.py).  Null
for lines written before, and for a match whose room was restored mid-way (not timed).

Revision ID: 0011_seat_think_times
Revises: 0010_player_standings
Create Date: 2026-12-06 21:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011_seat_think_times"
down_revision = "0010_player_standings"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("player_matches", schema=None) as batch_op:
        batch_op.add_column(sa.Column("moves_sent", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("moves_instant", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("player_matches", schema=None) as batch_op:
        batch_op.drop_column("moves_instant")
        batch_op.drop_column("moves_sent")
