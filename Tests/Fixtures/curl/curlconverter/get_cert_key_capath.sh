curl --cert /path/to/cert --key /path/to/key --capath /path/to/ca https://localhost:28139
