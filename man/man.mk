# man/: the manual pages, installed by `make install` with the version filled in.
#   rdmacheck.1            the command
#   rdmacheck-scenario.5   the scenario language (a summary of scenarios/README.md)
MAN_PAGES := man/rdmacheck.1 man/rdmacheck-scenario.5
