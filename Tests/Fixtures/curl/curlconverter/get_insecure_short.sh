# This test doesn't really make sense with http://
curl -k 'http://localhost:28139/'
