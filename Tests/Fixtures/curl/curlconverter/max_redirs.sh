curl 'http://localhost:28139' --max-redirs 20
