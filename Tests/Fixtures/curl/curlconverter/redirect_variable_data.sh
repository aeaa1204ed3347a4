curl localhost:28139 --data-binary foo --data @- < $FILENAME
