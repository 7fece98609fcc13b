"""``raterlab plan``: a study's size before annotation starts.

::

    raterlab plan comparison --effect-size 0.5 --power 0.8 --alpha 0.05 --paired
    raterlab plan agreement --coefficient cohen_kappa --expected 0.7 --ci-width 0.2 \\
        --raters 2 --categories 2
    raterlab plan judge --correlation 0.8 --ci-width 0.2 --sd 1.0

``comparison``: the pairs (``--paired``) or items per condition an A-vs-B comparison needs
(a paired or two-sample t-test, or a Wilcoxon test through its efficiency 3/pi).
``agreement``: the units a coefficient's 95% interval of a given width needs, simulated
(seeded) from the study's design. ``judge``: the human labels a prediction-powered interval
of a mean needs, given a pilot's judge-human correlation, against the humans alone.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable

from raterlab.agreement.names import COEFFICIENT_NAMES, LEVELS
from raterlab.cli.commands import COMMANDS

PROGRESS_AFTER_S = 1.0
"""A plan that simulates longer than this shows each width it tries on a terminal's stderr."""


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "plan",
        help=COMMANDS["plan"][1],
        description=__doc__.split("::")[0].strip(),
        epilog=__doc__.split("::")[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    _comparison(actions.add_parser("comparison", help="pairs or items per group for A vs B"))
    _agreement(actions.add_parser("agreement", help="units for an agreement interval's width"))
    _judge(actions.add_parser("judge", help="human labels for a PPI interval's width"))


def _format(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--format", choices=("text", "json"), default="text")


def _comparison(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--effect-size", type=float, required=True, help="Cohen's d (of the differences if paired)"
    )
    parser.add_argument("--power", type=float, required=True, help="e.g. 0.8")
    parser.add_argument(
        "--alpha", type=float, default=0.05, help="significance level (default 0.05)"
    )
    parser.add_argument(
        "--paired", action="store_true", help="the same items in both conditions (pairs)"
    )
    parser.add_argument(
        "--alternative",
        choices=("two-sided", "larger", "smaller", "one-sided"),
        default="two-sided",
        help="as statsmodels names it (default two-sided); one-sided: in the effect's direction",
    )
    parser.add_argument(
        "--test", choices=("t", "wilcoxon"), default="t", help="t-test, or Wilcoxon via 3/pi"
    )
    _format(parser)
    parser.set_defaults(func=run_comparison)


def _agreement(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--coefficient",
        required=True,
        help=f"one of {', '.join(COEFFICIENT_NAMES)}, optionally with its option "
        "(cohen_kappa:quadratic, krippendorff_alpha:ordinal)",
    )
    parser.add_argument("--expected", type=float, required=True, help="the value expected")
    parser.add_argument(
        "--ci-width", type=float, required=True, help="the interval's width (at --confidence)"
    )
    parser.add_argument("--raters", type=int, required=True, help="raters per unit")
    parser.add_argument("--categories", type=int, required=True, help="categories of the field")
    parser.add_argument(
        "--level", choices=LEVELS, default="nominal", help="sets the coefficient's default option"
    )
    parser.add_argument("--confidence", type=float, default=0.95, help="default 0.95")
    parser.add_argument(
        "--simulations", type=int, default=2000, help="studies simulated per size (default 2,000)"
    )
    parser.add_argument("--seed", type=int, default=0, help="default 0")
    _format(parser)
    parser.set_defaults(func=run_agreement)


def _judge(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--correlation", type=float, required=True, help="judge-human correlation in the pilot"
    )
    parser.add_argument(
        "--ci-width", type=float, required=True, help="the interval's width (at --confidence)"
    )
    spread = parser.add_mutually_exclusive_group(required=True)
    spread.add_argument("--sd", type=float, help="the human scores' standard deviation")
    spread.add_argument("--rate", type=float, help="a binary label's rate p (sd = sqrt(p(1-p)))")
    parser.add_argument(
        "--unlabeled", type=int, default=None, help="items only the judge labels (default: many)"
    )
    parser.add_argument("--confidence", type=float, default=0.95, help="default 0.95")
    _format(parser)
    parser.set_defaults(func=run_judge)


def _report(args: argparse.Namespace, plan: object, text: Callable[[dict], str]) -> int:
    data = plan.as_dict()
    print(json.dumps(data, indent=2) if args.format == "json" else text(data))
    return 0


def _fail(error: ValueError) -> int:
    print(f"raterlab plan: {error}", file=sys.stderr)
    return 2


def run_comparison(args: argparse.Namespace) -> int:
    from raterlab.planning.power import plan_comparison

    try:
        plan = plan_comparison(
            args.effect_size, args.power, args.alpha, args.paired, args.alternative, args.test
        )
    except ValueError as error:
        return _fail(error)
    return _report(args, plan, _comparison_text)


def _comparison_text(p: dict) -> str:
    size = (
        f"{p['n_pairs']} pairs (each item rated in both conditions)"
        if p["design"] == "paired"
        else f"{p['n_per_group']} items per condition ({p['n_items']} in all)"
    )
    return (
        f"{size}\n"
        f"  to detect d = {p['effect_size']} with power {p['power']} at alpha {p['alpha']} "
        f"({p['alternative']})\n"
        f"  test assumed: {p['test']}\n"
        f"  power at that size: {p['achieved_power']:.4f} (unrounded n {p['n_exact']:.2f})"
    )


def run_agreement(args: argparse.Namespace) -> int:
    from raterlab.planning.agreement_units import plan_agreement

    started = time.monotonic()

    def progress(width: object) -> None:
        if time.monotonic() - started > PROGRESS_AFTER_S:
            print(f"  {width.n_units} units: width {width.ci_width:.4f}", file=sys.stderr)

    try:
        plan = plan_agreement(
            args.coefficient,
            args.expected,
            args.ci_width,
            args.raters,
            args.categories,
            args.level,
            args.confidence,
            args.simulations,
            args.seed,
            progress=progress if sys.stderr.isatty() else None,
        )
    except ValueError as error:
        return _fail(error)
    return _report(args, plan, _agreement_text)


def _agreement_text(p: dict) -> str:
    options = f" ({p['options']})" if p["options"] else ""
    return (
        f"{p['n_units']} units, each rated by {p['n_raters']} raters\n"
        f"  for a {p['confidence']:.0%} interval of {p['coefficient']}{options} at most "
        f"{p['ci_width']} wide around {p['expected']} ({p['n_categories']} categories)\n"
        f"  simulated width at that size: {p['planned_width']:.4f} "
        f"(mean {p['simulated_mean']:.3f} over {p['simulations']} studies, seed {p['seed']})\n"
        f"  model: {p['model']}"
    )


def run_judge(args: argparse.Namespace) -> int:
    from raterlab.planning.judge_labels import plan_judge

    try:
        if args.rate is not None and not 0 < args.rate < 1:
            raise ValueError(f"--rate must be between 0 and 1; got {args.rate}")
        sd = args.sd if args.sd is not None else (args.rate * (1 - args.rate)) ** 0.5
        plan = plan_judge(args.correlation, args.ci_width, sd, args.unlabeled, args.confidence)
    except ValueError as error:
        return _fail(error)
    return _report(args, plan, _judge_text)


def _judge_text(p: dict) -> str:
    unlabeled = "many" if p["n_unlabeled"] is None else f"{p['n_unlabeled']:,}"
    return (
        f"{p['n_labels']} human labels with the judge (PPI++), against "
        f"{p['n_labels_classical']} without it: {p['n_saved']} saved "
        f"({p['saved_share']:.0%})\n"
        f"  for a {p['confidence']:.0%} interval of the mean {p['ci_width']} wide; judge-human "
        f"correlation {p['correlation']}, human sd {p['sd']:.4f}, {unlabeled} items the judge "
        "alone labels"
    )
