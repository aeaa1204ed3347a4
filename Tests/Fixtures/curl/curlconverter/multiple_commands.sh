curl localhost:28139

# a comment
curl localhost:28139/second



curl localhost:28139/third --upload-file - < input_redirected_file.txt
