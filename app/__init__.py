"""The UNO server.  Importing it serves the compiled engine when its current build is there
(app/native.py): every process that imports the app, workers and tests alike, runs the same code."""

from app import native

native.activate()
