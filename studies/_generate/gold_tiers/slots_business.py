"""Slot values of the business and software documents of ``gold_tiers`` (earnings,
central bank, incident, release and meeting reports), drawn coherently from a seeded
generator: the figures of one document agree with each other."""

from __future__ import annotations

import random

from .material import SlotMaker


def _pct(rng: random.Random, lo: float, hi: float, nd: int = 1) -> str:
    """A percentage between ``lo`` and ``hi`` with ``nd`` decimals."""
    return f"{rng.uniform(lo, hi):.{nd}f}"


def earnings(rng: random.Random) -> dict[str, str]:
    company, ticker, ceo = rng.choice(
        [
            ("Norvane Systems", "NVS", "Elena Marsh"),
            ("Quillfield Foods", "QFF", "David Okonjo"),
            ("Brightwater Logistics", "BWL", "Hannah Reyes"),
            ("Solent Medical Devices", "SMD", "Rafael Ortiz"),
            ("Calder Outdoor", "CLDR", "Mei Tanaka"),
        ]
    )
    rev = rng.randint(180, 2400)
    growth = rng.randint(3, 24)
    ni = round(rev * rng.uniform(0.04, 0.14), 1)
    ni_prev = round(ni * rng.uniform(0.75, 1.25), 1)
    gm = rng.randint(31, 58)
    fy = rev * 4
    return {
        "company": company,
        "ticker": ticker,
        "ceo": ceo,
        "quarter": rng.choice(["first", "second", "third", "fourth"]),
        "year": str(rng.choice([2025, 2026])),
        "rev": f"{rev:,}",
        "growth": str(growth),
        "growth_alt": str(growth + rng.choice([6, 9, 12])),
        "segment": rng.choice(["services", "international", "subscription", "enterprise"]),
        "seg_growth": str(growth + rng.randint(4, 15)),
        "ni": f"{ni:,}",
        "ni_prev": f"{ni_prev:,}",
        "ni_dir": "rose" if ni > ni_prev else "fell",
        "eps": f"{ni / rng.uniform(80, 400):.2f}",
        "gm": str(gm),
        "gm_prev": str(gm + rng.randint(1, 4)),
        "cost_driver": rng.choice(["freight", "component", "energy", "labour"]),
        "fy_lo": f"{round(fy * 0.97):,}",
        "fy_hi": f"{round(fy * 1.01):,}",
        "risk": rng.choice(
            [
                "weaker demand in Europe",
                "new import tariffs",
                "delays at a key supplier",
                "currency headwinds",
            ]
        ),
        "div": f"{rng.choice([0.12, 0.18, 0.25, 0.31, 0.40]):.2f}",
        "drop": _pct(rng, 2, 11),
    }


def incident(rng: random.Random) -> dict[str, str]:
    duration = rng.randint(18, 95)
    start_h, start_m = rng.randint(17, 21), rng.randint(0, 59)
    end_total = start_h * 60 + start_m + duration
    service, action = rng.choice(
        [
            ("the checkout API", "checkout"),
            ("the login service", "sign-in"),
            ("the search API", "search"),
            ("the payments gateway", "card payment"),
        ]
    )
    return {
        "service": service,
        "action": action,
        "date": f"{rng.choice(['3', '11', '17', '24'])} {rng.choice(['March', 'June', 'October'])}",
        "duration": str(duration),
        "duration_alt": str(duration + rng.choice([30, 45, 60])),
        "start": f"{start_h:02d}:{start_m:02d}",
        "end": f"{end_total // 60:02d}:{end_total % 60:02d}",
        "pct": str(rng.randint(8, 61)),
        "component": rng.choice(["the API gateway", "the session store client", "pgbouncer"]),
        "pool_old": str(rng.choice([50, 80, 100])),
        "pool_new": str(rng.choice([5, 10])),
        "detect": str(rng.randint(4, 14)),
        "recover": str(rng.randint(2, 9)),
    }


def central_bank(rng: random.Random) -> dict[str, str]:
    cut = rng.random() < 0.6
    bps = rng.choice([25, 25, 50])
    rate = rng.choice([2.75, 3.25, 3.5, 4.0, 4.5])
    yes = rng.choice([5, 6, 7])
    no = 9 - yes
    return {
        "votes": f"{yes}-{no}",
        "action": "lower" if cut else "raise",
        "action_opposite": "raise" if cut else "lower",
        "action_past": "lowered" if cut else "raised",
        "action_noun": "cut" if cut else "increase",
        "bps": str(bps),
        "rate": f"{rate:.2f}",
        "rate_alt": f"{rate + 0.5:.2f}",
        "nth": rng.choice(["second", "third"]),
        "infl": _pct(rng, 2.3, 3.9),
        "month": rng.choice(["August", "September", "October"]),
        "unemp": _pct(rng, 4.0, 5.8),
        "stance": "proceed carefully with further reductions"
        if cut
        else "keep policy restrictive for as long as needed",
        "growth": _pct(rng, 0.6, 1.8),
        "dissent": f"{no} members preferred to leave the rate unchanged.",
        "yield_bps": str(rng.randint(3, 12)),
    }


def release(rng: random.Random) -> dict[str, str]:
    product = rng.choice(["Ferrite DB", "Tidepool", "Quarry", "Lattice Queue"])
    major = rng.randint(2, 6)
    minor = rng.randint(3, 9)
    perf = rng.randint(15, 60)
    feature1, f1_desc = rng.choice(
        [
            ("incremental backups", "operators restore to any point in the last 7 days"),
            ("row-level TTL", "expired rows be removed without a cron job"),
            ("a query plan cache", "repeated queries skip planning entirely"),
        ]
    )
    removed, replacement = rng.choice(
        [
            ("`legacy_auth`", "token authentication"),
            ("`--compat-mode`", "the default mode"),
            ("`storage.v1_layout`", "the v2 storage layout"),
        ]
    )
    runtime, min_rt = rng.choice([("Linux kernel", "5.4"), ("glibc", "2.31"), ("Java", "17")])
    return {
        "product": product,
        "version": f"{major}.{minor}",
        "prev_version": f"{major}.{minor - 1}",
        "dep_version": f"{major}.{minor - 3}",
        "feature1": feature1,
        "f1_desc": f1_desc,
        "feature2": rng.choice(
            ["an ARM64 build", "OpenTelemetry tracing", "a read-only admin role"]
        ),
        "perf_area": rng.choice(["range scans", "JSON filtering", "aggregations"]),
        "perf": str(perf),
        "perf_alt": str(perf * 3),
        "removed": removed,
        "replacement": replacement,
        "runtime": runtime,
        "min_rt": min_rt,
        "leak_case": rng.choice(
            ["clients disconnect during a long query", "TLS sessions are resumed"]
        ),
        "bug_case": rng.choice(
            ["`NULL` values in descending indexes", "time zones with half-hour offsets"]
        ),
    }


def meeting(rng: random.Random) -> dict[str, str]:
    people = rng.sample(["Priya", "Marek", "Jonas", "Aiko", "Dele", "Sofia", "Tomás", "Hana"], 4)
    topic, status, decision, action = rng.choice(
        [
            (
                "Postgres upgrade",
                "the staging upgrade to version 16 went smoothly, but two extensions need new "
                "builds",
                "production upgrade moves to after the end-of-quarter freeze",
                "rebuild the two extensions and rerun the staging tests",
            ),
            (
                "Kubernetes cost",
                "node utilisation averages 31%",
                "enable the cluster autoscaler on the batch node pool first",
                "enable the autoscaler on the batch pool and report savings",
            ),
            (
                "Logging pipeline",
                "log volume grew 40% after the new tracing rollout",
                "sample debug logs at 10% in production",
                "ship the sampling config and update the runbook",
            ),
        ]
    )
    spend = rng.randint(9, 27)
    return {
        "weekday": rng.choice(["Monday", "Tuesday", "Thursday"]),
        "a1": people[0],
        "a2": people[1],
        "a3": people[2],
        "a4": people[3],
        "topic1": topic,
        "t1_status": status,
        "t1_decision": decision,
        "t1_action": action,
        "spend": str(spend),
        "spend_alt": str(spend + 20),
        "spend_driver": rng.choice(
            ["data egress from the analytics cluster", "idle GPU nodes", "snapshot storage"]
        ),
        "deadline": rng.choice(["Friday", "next Wednesday", "the end of the month"]),
    }


SLOT_MAKERS: dict[str, SlotMaker] = {
    "earnings": earnings,
    "incident": incident,
    "central_bank": central_bank,
    "release": release,
    "meeting": meeting,
}
