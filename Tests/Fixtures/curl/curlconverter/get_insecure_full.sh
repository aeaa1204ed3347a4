curl --insecure -X GET http://localhost:28139
