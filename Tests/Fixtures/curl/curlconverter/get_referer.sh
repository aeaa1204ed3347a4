curl http://localhost:28139 -G -H "X-Requested-With: XMLHttpRequest" -e "https://website.com" -A "SimCity"
