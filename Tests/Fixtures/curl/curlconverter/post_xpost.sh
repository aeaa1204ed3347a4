curl -XPOST 'http://localhost:28139/api/xxxxxxxxxxxxxxxx' --data '{"keywords":"php","page":1,"searchMode":1}'
