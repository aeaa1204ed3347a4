curl -X "DELETE" "http://localhost:28139/page"
