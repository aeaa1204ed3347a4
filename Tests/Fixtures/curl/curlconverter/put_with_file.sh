curl -i -X PUT --data "@new_file" http://localhost:28139/upload
