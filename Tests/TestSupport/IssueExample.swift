/// The collection format of issue 5, as written in the issue.
package let issueExampleYAML = """
    name: Demo API
    variables: { per_page: "20" }               # collection-wide defaults
    environments:
      - name: local
        base_url: http://127.0.0.1:8080/v1
        variables: { user_id: "1", token: "{{env.DEMO_TOKEN}}" }
        headers: { Authorization: "Bearer {{token}}" }
      - name: production
        base_url: https://api.example.com/v1
        protected: true                          # confirm before sending
        secrets: [token]                         # values masked on screen and in history
    endpoints:
      - name: List posts
        method: GET
        path: /posts
        query: { page: "1", per_page: "{{per_page}}" }
      - folder: Users
        endpoints:
          - name: Get user
            path: /users/{{user_id}}             # method defaults to GET
          - name: Create user
            method: POST
            path: /users
            json: { name: Ada, email: ada@example.com }   # or body: "raw text", or form: {k: v}
            headers: { X-Request-Id: "{{uuid}}" }
    """
