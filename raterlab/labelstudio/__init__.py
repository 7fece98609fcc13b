"""Label Studio as a front end: labeling configs and task files generated from the study and
its packets (:mod:`~raterlab.labelstudio.config`, :mod:`~raterlab.labelstudio.tasks`), and its
JSON and JSON_MIN exports read (:mod:`~raterlab.labelstudio.formats`), attributed to their
authors (:mod:`~raterlab.labelstudio.users`) and turned into returned files
(:mod:`~raterlab.labelstudio.exports`)."""
