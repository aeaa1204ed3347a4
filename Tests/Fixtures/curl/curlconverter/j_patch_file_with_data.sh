curl -XPATCH http://localhost:28139/patch -F file1=@./test/fixtures/curl_commands/delete.sh -F form1=form+data+1 -F form2=form_data_2
