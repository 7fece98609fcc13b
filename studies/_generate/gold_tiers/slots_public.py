"""Slot values of the health, science, history and policy documents of ``gold_tiers``
(trial, heat, nutrition, ecology, exoplanet, canal, exhibition and council reports), drawn
coherently from a seeded generator: the figures of one document agree with each other."""

from __future__ import annotations

import random

from .material import SlotMaker


def trial(rng: random.Random) -> dict[str, str]:
    drug = rng.choice(["veltrozumab", "orisaglip", "temzaprine", "lumacitide", "dasolimod"])
    success = rng.random() < 0.6
    eff_pbo = rng.randint(8, 30)
    eff_drug = eff_pbo + (rng.randint(12, 30) if success else rng.randint(1, 4))
    drug_cap = drug.capitalize()
    result = (
        f"{drug_cap} met the primary endpoint: {eff_drug}% of participants on {drug} reached "
        f"it, compared with {eff_pbo}% on placebo."
        if success
        else f"{drug_cap} did not meet the primary endpoint: the difference from placebo "
        f"({eff_drug}% vs {eff_pbo}%) was not statistically significant."
    )
    condition, endpoint = rng.choice(
        [
            (
                "moderate-to-severe plaque psoriasis",
                "the share of participants with at least a 75% improvement in skin symptom scores",
            ),
            (
                "chronic migraine",
                "the share of participants with at least a 50% reduction in monthly migraine days",
            ),
            (
                "ulcerative colitis",
                "the share of participants in clinical remission at the end of treatment",
            ),
            (
                "type 2 diabetes",
                "the share of participants reaching an HbA1c below 7% at the end of treatment",
            ),
        ]
    )
    n = rng.randint(240, 1800)
    se_pbo = rng.randint(3, 9)
    return {
        "sponsor": rng.choice(["Arventa Therapeutics", "Nolis Bio", "Keystone Pharma"]),
        "trial": rng.choice(["HORIZON-2", "CLARITY", "ASCEND-B", "NORTHSTAR"]),
        "phase": rng.choice(["2", "3"]),
        "drug": drug,
        "drug_cap": drug_cap,
        "condition": condition,
        "n": f"{n:,}",
        "n_alt": f"{n * 2 + 100:,}",
        "sites": str(rng.randint(20, 140)),
        "weeks": str(rng.choice([12, 16, 24, 52])),
        "endpoint": endpoint,
        "result_sentence": result,
        "met": "met" if success else "did not meet",
        "met_opposite": "did not meet" if success else "met",
        "eff_drug": str(eff_drug),
        "eff_pbo": str(eff_pbo),
        "se1": rng.choice(["headache", "nausea", "upper respiratory infections"]),
        "se2": rng.choice(["fatigue", "injection-site reactions", "diarrhoea"]),
        "se_pct": str(se_pbo + rng.randint(3, 12)),
        "se_pct_pbo": str(se_pbo),
        "discontinue": str(rng.randint(2, 9)),
    }


def heat(rng: random.Random) -> dict[str, str]:
    days = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    i = rng.randint(0, 3)
    return {
        "city": rng.choice(["Riverton", "Lakeview", "Port Ellis", "Marlow Heights"]),
        "start_day": days[i],
        "end_day": days[i + 2],
        "temp": str(rng.randint(35, 41)),
        "low": str(rng.randint(22, 26)),
        "centres": str(rng.randint(8, 30)),
        "phone": "311",
    }


def nutrition(rng: random.Random) -> dict[str, str]:
    n = rng.randint(18, 120) * 1000
    return {
        "n": f"{n:,}",
        "years": str(rng.randint(8, 20)),
        "exposure": rng.choice(
            [
                "drinking two or more cups of coffee a day",
                "eating a handful of nuts most days",
                "taking a 20-minute walk after dinner",
            ]
        ),
        "outcome": rng.choice(["type 2 diabetes", "cardiovascular disease", "cognitive decline"]),
        "risk": str(rng.randint(9, 24)),
        "risk_alt": str(rng.randint(40, 60)),
        "confounder": rng.choice(
            ["income and education", "smoking and physical activity", "overall diet quality"]
        ),
        "researcher": rng.choice(["Dr. Amara Osei", "Professor Karl Lindqvist", "Dr. Yuki Sato"]),
        "journal": rng.choice(["a peer-reviewed nutrition journal", "a public health journal"]),
    }


def ecology(rng: random.Random) -> dict[str, str]:
    y1 = rng.randint(2004, 2012)
    decline = rng.randint(18, 46)
    return {
        "species": rng.choice(
            ["brown trout", "freshwater pearl mussel", "white-clawed crayfish", "common frog"]
        ),
        "n_sites": str(rng.randint(24, 160)),
        "region": rng.choice(
            [
                "three upland river catchments",
                "the tributaries of a lowland river",
                "a chain of mountain lakes",
            ]
        ),
        "y1": str(y1),
        "y2": str(y1 + rng.randint(10, 16)),
        "decline": str(decline),
        "decline_alt": str(decline + rng.choice([15, 20, 25])),
        "temp": rng.choice(["1.0", "1.5", "2.0"]),
        "nonfactor": rng.choice(["angling pressure", "nitrate levels", "distance to roads"]),
    }


def exoplanet(rng: random.Random) -> dict[str, str]:
    return {
        "planet": f"TOI-{rng.randint(1200, 7400)} b",
        "size": rng.choice(["1.2", "1.4", "1.7", "2.1"]),
        "star_type": rng.choice(["red dwarf", "K-type", "cool M-dwarf"]),
        "dist": str(rng.randint(30, 240)),
        "period": str(rng.randint(9, 48)),
        "scientist": rng.choice(["Dr. Lena Okafor", "Dr. Tomasz Wren", "Dr. Ines Albuquerque"]),
        "journal": rng.choice(["The Astronomical Journal", "Astronomy & Astrophysics"]),
    }


def canal(rng: random.Random) -> dict[str, str]:
    opened = rng.randint(1790, 1815)
    rail = opened + rng.randint(38, 55)
    locks = rng.randint(18, 42)
    return {
        "canal": rng.choice(["Harlow Valley Canal", "Ashby Navigation", "Tern & Severn Canal"]),
        "year_open": str(opened),
        "year_open_alt": str(opened + 40),
        "cargo": rng.choice(["coal", "limestone", "slate"]),
        "town": rng.choice(["Coldmoor", "Brenley", "Ystrad Fawr"]),
        "port": rng.choice(["Eastwick", "Port Carrick", "Saltby"]),
        "length": str(rng.randint(18, 44)),
        "peak_decade": str((opened // 10) * 10 + 30),
        "tons": f"{rng.randint(80, 400) * 1000:,}",
        "workers": str(rng.randint(300, 900)),
        "rail_year": str(rail),
        "fall": str(rng.randint(55, 85)),
        "last_year": str(rail + rng.randint(50, 80)),
        "restore_year": str(rng.choice([1994, 1998, 2003, 2007])),
        "locks": str(locks),
        "restored": str(rng.randint(6, locks - 4)),
        "km": str(rng.randint(3, 9)),
        "aqueduct": rng.choice(["Pen-y-Bont", "Millford", "Cray Bridge"]),
        "cost": f"{rng.uniform(3, 14):.1f}",
    }


def exhibition(rng: random.Random) -> dict[str, str]:
    title, theme, highlight1, highlight2, people = rng.choice(
        [
            (
                "Threads of Empire",
                "the textile trade and the people who worked in it",
                "a 19th-century pattern book",
                "a weavers' union banner from 1889",
                "mill workers",
            ),
            (
                "Made on the River",
                "two centuries of shipbuilding on the river",
                "a shipwright's tool chest",
                "a restored ledger of yard wages",
                "dock and yard labourers",
            ),
            (
                "Voices from the Dock",
                "migration to the city after the Second World War",
                "letters written home by early arrivals",
                "a hand-painted sign from one of the first corner shops",
                "the first migrant families",
            ),
        ]
    )
    return {
        "museum": rng.choice(
            ["Northgate Museum", "Riverside Museum of Working Life", "Calder Civic Gallery"]
        ),
        "title": title,
        "n_objects": str(rng.randint(120, 340)),
        "theme": theme,
        "open_date": rng.choice(["14 March", "2 May", "19 September"]),
        "close_date": rng.choice(["11 January", "28 February", "6 April"]),
        "highlight1": highlight1,
        "highlight2": highlight2,
        "partner": rng.choice(["local community groups", "the city archive", "a university"]),
        "people": people,
        "price": rng.choice(["8", "10", "12.50"]),
        "next_venue": rng.choice(["Glasgow", "Leeds", "Belfast"]),
    }


def council(rng: random.Random) -> dict[str, str]:
    yes = rng.randint(6, 9)
    no = rng.randint(2, 5)
    return {
        "council": rng.choice(["Riverton City Council", "Ashby Borough Council"]),
        "votes": f"{yes} to {no}",
        "project": rng.choice(
            [
                "protected bike lanes on Station Road and Mill Street",
                "a 240-home development on the former bus depot site",
                "a low-traffic neighbourhood around Greenfield Park",
            ]
        ),
        "cost": f"{rng.uniform(1.2, 9.8):.1f}",
        "funding": rng.choice(
            ["a regional transport grant", "developer contributions", "the capital budget"]
        ),
        "funding_share": str(rng.randint(55, 90)),
        "consult_n": f"{rng.randint(600, 4200):,}",
        "support": str(rng.randint(41, 63)),
        "concern": rng.choice(
            ["loss of parking", "construction traffic", "delivery access for shops"]
        ),
        "start": rng.choice(["spring", "autumn", "early next year"]),
        "review_months": str(rng.choice([6, 12, 18])),
    }


SLOT_MAKERS: dict[str, SlotMaker] = {
    "trial": trial,
    "heat": heat,
    "nutrition": nutrition,
    "ecology": ecology,
    "exoplanet": exoplanet,
    "canal": canal,
    "exhibition": exhibition,
    "council": council,
}
