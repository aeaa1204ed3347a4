curl --trace-ascii log2.txt --user-agent "Mozilla Android6.1" -i --header "x-msisdn:XXXXXXXXXXXXX" -L "http://localhost:28139/vc/moviesmagic?p=5&pub=testmovie&tkn=817263812"
