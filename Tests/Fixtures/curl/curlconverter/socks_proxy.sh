curl 'http://localhost:28139' -x 'socks://1.1.1.1:8888'
