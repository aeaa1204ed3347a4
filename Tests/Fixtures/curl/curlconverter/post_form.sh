curl -X POST -F 'username=davidwalsh' -F 'password=something' http://localhost:28139/post-to-me.php
