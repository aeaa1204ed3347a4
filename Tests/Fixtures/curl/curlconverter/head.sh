curl --head http://localhost:28139/page
