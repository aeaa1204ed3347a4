curl --header "Content-Type: text/xml;charset=UTF-8" --header "getWorkOrderCancel;" localhost:28139/get
