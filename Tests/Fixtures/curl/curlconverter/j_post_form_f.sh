curl -F d1=data1 -F d2=data http://localhost:28139/post
