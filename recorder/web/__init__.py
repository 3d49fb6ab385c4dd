"""The replay server, a face like the CLI (recorder/cli/): Starlette routes over one Store that
call inward (the recorder to write, projections/ for states, exports/ for what a person reads)."""
