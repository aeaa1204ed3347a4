curl http://localhost:28139/post -d data1=data1 -d data2=data2 -d data3=data3 -F file1=./test/fixtures/curl_commands/delete.sh
