"""Planning a study size before annotation: power for comparisons, units for agreement
intervals, human labels for prediction-powered estimates."""
