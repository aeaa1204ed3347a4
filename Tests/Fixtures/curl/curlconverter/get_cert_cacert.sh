curl --cert /path/to/the/cert --cacert /path/to/ca-bundle.crt http://localhost:28139/
