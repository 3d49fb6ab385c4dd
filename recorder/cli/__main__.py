"""`python -m recorder.cli` is the `kifu` command."""

from recorder.cli import main

main()
