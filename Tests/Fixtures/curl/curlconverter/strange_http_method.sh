curl -X wHat localhost:28139
