curl localhost:28139 --data-binary foo --data @- < $'start'$FILENAME$"end"
