"""Label Studio as a front end: labeling configs and task files generated from the study and
its packets (:mod:`~raterlab.labelstudio.config`, :mod:`~raterlab.labelstudio.tasks`), and its
JSON exports read back into returned files (:mod:`~raterlab.labelstudio.exports`)."""
