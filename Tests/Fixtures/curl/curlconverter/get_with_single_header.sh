curl http://localhost:28139/ -H 'foo: bar'
