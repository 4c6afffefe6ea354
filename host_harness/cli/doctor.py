"""``rs-learn-host doctor``: is this installation and this project set up to work, and what is not."""

from __future__ import annotations

import sys

import click

from host_harness.targets.session import Session


@click.command("doctor")
@click.option("--dry-run", is_flag=True, help="Report only: rewrite nothing.")
@click.pass_obj
def doctor(session: Session, dry_run: bool) -> None:
    """Check the installation and this project; rewrite configurations that run a Python package.

    \b
    Checks:
      * the installed dependencies lie inside the ranges rs-learn was tested on;
      * git drivers (.git/config, ~/.gitconfig) and every agent's hooks and MCP
        entries (both scopes) run the rs-learn-host command: an entry written as
        `python -m rs_learn_host` (or `-m host_harness`) is rewritten to run it,
        and named (--dry-run: only named);
      * hook budgets (--budget on a hook, RS_LEARN_*_BUDGET in an agent's env or
        here) lie inside the guest's range, which it names;
      * a project with rs-learn's hooks has its .gm/ folder (else they recall and
        capture nothing).
    Exit status 0: nothing left to do; 1: a problem is reported.

    \b
    Examples:
      rs-learn-host doctor
      rs-learn-host -p ~/code/app doctor --dry-run
    """
    from host_harness.cli.setup import installed_host
    from host_harness.integrations.agents import config_files
    from host_harness.integrations.doctor import check
    from host_harness.integrations.edits import SetupError

    try:
        host = installed_host()
    except SetupError:
        host = None
    report = check(session.project, config_files(session.project), host, dry_run)
    for line in report.fixed:
        click.echo(line)
    for line in report.problems:
        click.echo(f"problem: {line}")
    if not report.problems:
        click.echo(f"ok: {session.project} and this installation ({host}) are set up"
                   + (f"; {len(report.fixed)} entries rewritten" if report.fixed else ""))
    sys.exit(1 if report.problems else 0)
