"""The gold tables: the policy consensus with the adjudicators' decisions applied
(:mod:`raterlab.gold.build`), and the contract they must meet before anything is exported
(:mod:`raterlab.gold.contract`)."""
