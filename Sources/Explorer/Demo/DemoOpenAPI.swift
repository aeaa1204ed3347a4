/// The demo API's own OpenAPI 3.1 document, served at `/openapi.json` (and `/v1/openapi.json`) by every
/// environment: each route as it really answers, its problem+json errors, schemas and examples.
///
/// Not described: the OAuth2 server (`/oauth/*`: form grants with server-side state), the
/// streams (`/stream/*`: timed or endless bodies), the WebSocket routes (`/ws/*`) and `/echo/**`.
/// Routes that take any method (`/echo`, `/slow`, `/status/{code}` …) are described by the
/// methods a client uses. Checked against the real server by `DemoOpenAPITests` (OpenAPIContract)
/// and by schemathesis (`Tests/e2e/test_openapi_conformance.py`).
package enum DemoOpenAPI {
    package static let json = #"""
        {
          "openapi": "3.1.0",
          "info": {
            "title": "explorer demo API",
            "version": "1.0.0",
            "description": "The demo API that `explorer demo` serves on 127.0.0.1, one server per environment (local,\#
         staging, production), each with its own data. Every route answers at the root and under /v1. Errors are RFC\#
         9457 problem details (application/problem+json). Not described here: the OAuth2 server (/oauth/*),\#
         the streams (/stream/*), the WebSocket routes (/ws/*) and /echo/** (any path under /echo)."
          },
          "servers": [{"url": "/v1"}],
          "paths": {
            "/": {
              "get": {
                "operationId": "index", "summary": "What the demo serves",
                "responses": {"200": {"description": "The environment and the list of endpoints",\#
         "content": {"application/json": {
                  "schema": {"type": "object", "required": ["name", "environment", "endpoints"], "properties": {
                    "name": {"type": "string"}, "environment": {"$ref": "#/components/schemas/Environment"},
                    "endpoints": {"type": "array", "items": {"type": "string"}}}},
                  "example": {"name": "explorer demo API", "environment": "local", "endpoints": ["GET /users",\#
         "POST /users"]}}}}}
              }
            },
            "/openapi.json": {
              "get": {
                "operationId": "openapi", "summary": "This document",
                "responses": {"200": {"description": "The OpenAPI document of the demo API",\#
         "content": {"application/json": {
                  "schema": {"type": "object", "required": ["openapi", "info", "paths"],\#
         "properties": {"openapi": {"type": "string"}}}}}}}
              }
            },
            "/users": {
              "get": {
                "operationId": "listUsers", "summary": "One page of users",
                "parameters": [
                  {"$ref": "#/components/parameters/page"}, {"$ref": "#/components/parameters/per_page"},
                  {"name": "role", "in": "query", "schema": {"$ref": "#/components/schemas/Role"}}
                ],
                "responses": {"200": {"description": "A page of users",\#
         "headers": {"Link": {"description": "first, prev, next and last pages", "required": true,\#
         "schema": {"type": "string"}, "example": "<http://127.0.0.1:8080/v1/users?page=1&per_page=10>; rel=\"first\",\#
         <http://127.0.0.1:8080/v1/users?page=1&per_page=10>; rel=\"last\""}, "X-Total-Count": {"required": true,\#
         "schema": {"type": "string", "pattern": "^[0-9]+$"}, "example": "1"}},
                  "content": {"application/json": {"schema": {"$ref": "#/components/schemas/UserPage"},
                    "examples": {
                      "firstPage": {"summary": "The first page", "value": {"environment": "local", "page": 1,\#
         "per_page": 10, "total": 1, "items": [
                        {"id": 1, "name": "Ada Lovelace", "username": "ada", "email": "ada@example.com",\#
         "role": "admin", "createdAt": "2024-01-15T09:30:00Z"}]}},
                      "empty": {"summary": "No user has that role", "value": {"environment": "local", "page": 1,\#
         "per_page": 10, "total": 0, "items": []}}
                    }}}}}
              },
              "post": {
                "operationId": "createUser", "summary": "Adds a user",
                "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref":\#
         "#/components/schemas/NewUser"},
                  "example": {"name": "Grace Hopper", "email": "grace@example.com", "role": "editor"}}}},
                "responses": {
                  "201": {"description": "The user, with its id",\#
         "headers": {"Location": {"description": "The user's URL", "schema": {"type": "string"}}},
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/User"},
                      "example": {"id": 11, "name": "Grace Hopper", "username": "grace", "email": "grace@example.com",\#
         "role": "editor", "createdAt": "2024-06-01T12:00:00Z"}}},
                    "links": {"getUser": {"operationId": "getUser", "parameters": {"id": "$response.body#/id"}}}},
                  "400": {"$ref": "#/components/responses/BadRequest"},
                  "422": {"$ref": "#/components/responses/ValidationFailed"}
                }
              }
            },
            "/users/{id}": {
              "parameters": [{"$ref": "#/components/parameters/id"}],
              "get": {
                "operationId": "getUser", "summary": "One user",
                "responses": {"200": {"description": "The user",\#
         "content": {"application/json": {"schema": {"$ref": "#/components/schemas/User"},
                    "example": {"id": 1, "name": "Ada Lovelace", "username": "ada", "email": "ada@example.com",\#
         "role": "admin", "createdAt": "2024-01-15T09:30:00Z"}}}},
                  "404": {"$ref": "#/components/responses/NotFound"}}
              },
              "put": {
                "operationId": "replaceUser", "summary": "Replaces a user's fields",
                "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref":\#
         "#/components/schemas/NewUser"}}}},
                "responses": {"200": {"description": "The user",\#
         "content": {"application/json": {"schema": {"$ref": "#/components/schemas/User"}}}},
                  "400": {"$ref": "#/components/responses/BadRequest"},\#
         "404": {"$ref": "#/components/responses/NotFound"},
                  "422": {"$ref": "#/components/responses/ValidationFailed"}}
              },
              "patch": {
                "operationId": "updateUser", "summary": "Changes some of a user's fields",
                "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref":\#
         "#/components/schemas/UserChanges"}}}},
                "responses": {"200": {"description": "The user",\#
         "content": {"application/json": {"schema": {"$ref": "#/components/schemas/User"}}}},
                  "400": {"$ref": "#/components/responses/BadRequest"},\#
         "404": {"$ref": "#/components/responses/NotFound"},
                  "422": {"$ref": "#/components/responses/ValidationFailed"}}
              },
              "delete": {
                "operationId": "deleteUser", "summary": "Removes a user and their posts",
                "responses": {"204": {"description": "Removed"}, "404": {"$ref": "#/components/responses/NotFound"}}
              }
            },
            "/posts": {
              "get": {
                "operationId": "listPosts", "summary": "One page of posts",
                "parameters": [
                  {"$ref": "#/components/parameters/page"}, {"$ref": "#/components/parameters/per_page"},
                  {"name": "userId", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 1000000}}
                ],
                "responses": {"200": {"description": "A page of posts",\#
         "headers": {"Link": {"description": "first, prev, next and last pages", "required": true,\#
         "schema": {"type": "string"}, "example": "<http://127.0.0.1:8080/v1/users?page=1&per_page=10>; rel=\"first\",\#
         <http://127.0.0.1:8080/v1/users?page=1&per_page=10>; rel=\"last\""}, "X-Total-Count": {"required": true,\#
         "schema": {"type": "string", "pattern": "^[0-9]+$"}, "example": "1"}},
                  "content": {"application/json": {"schema": {"$ref": "#/components/schemas/PostPage"},
                    "example": {"environment": "local", "page": 1, "per_page": 10, "total": 1, "items": [
                      {"id": 1, "userId": 1, "title": "Notes on the Analytical Engine",\#
         "body": "The engine weaves algebraic patterns.", "tags": ["history"], "published": true}]}}}}}
              },
              "post": {
                "operationId": "createPost", "summary": "Adds a post",
                "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref":\#
         "#/components/schemas/NewPost"},
                  "example": {"userId": 1, "title": "Hello", "body": "First post.", "tags": ["intro"],\#
         "published": false}}}},
                "responses": {
                  "201": {"description": "The post, with its id",\#
         "headers": {"Location": {"description": "The post's URL", "schema": {"type": "string"}}},
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Post"}}},
                    "links": {"getPost": {"operationId": "getPost", "parameters": {"id": "$response.body#/id"}}}},
                  "400": {"$ref": "#/components/responses/BadRequest"},
                  "422": {"$ref": "#/components/responses/ValidationFailed"}
                }
              }
            },
            "/posts/{id}": {
              "parameters": [{"$ref": "#/components/parameters/id"}],
              "get": {
                "operationId": "getPost", "summary": "One post",
                "responses": {"200": {"description": "The post",\#
         "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Post"},
                    "example": {"id": 1, "userId": 1, "title": "Notes on the Analytical Engine",\#
         "body": "The engine weaves algebraic patterns.", "tags": ["history"], "published": true}}}},
                  "404": {"$ref": "#/components/responses/NotFound"}}
              },
              "put": {
                "operationId": "replacePost", "summary": "Replaces a post's fields",
                "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref":\#
         "#/components/schemas/NewPost"}}}},
                "responses": {"200": {"description": "The post",\#
         "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Post"}}}},
                  "400": {"$ref": "#/components/responses/BadRequest"},\#
         "404": {"$ref": "#/components/responses/NotFound"},
                  "422": {"$ref": "#/components/responses/ValidationFailed"}}
              },
              "patch": {
                "operationId": "updatePost", "summary": "Changes some of a post's fields",
                "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref":\#
         "#/components/schemas/PostChanges"}}}},
                "responses": {"200": {"description": "The post",\#
         "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Post"}}}},
                  "400": {"$ref": "#/components/responses/BadRequest"},\#
         "404": {"$ref": "#/components/responses/NotFound"},
                  "422": {"$ref": "#/components/responses/ValidationFailed"}}
              },
              "delete": {
                "operationId": "deletePost", "summary": "Removes a post",
                "responses": {"204": {"description": "Removed"}, "404": {"$ref": "#/components/responses/NotFound"}}
              }
            },
            "/login": {
              "post": {
                "operationId": "login", "summary": "A bearer token for the demo account (ada / lovelace) that lasts 60\#
         s",
                "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object",\#
         "required": ["user", "password"],
                  "properties": {"user": {"type": "string"}, "password": {"type": "string"}}},\#
         "example": {"user": "ada", "password": "lovelace"}}}},
                "responses": {
                  "200": {"description": "A token", "content": {"application/json": {"schema": {"type": "object",
                    "required": ["token", "token_type", "expires_in", "user", "roles"], "properties": {
                      "token": {"type": "string"}, "token_type": {"const": "Bearer"}, "expires_in": {"type": "integer"},
                      "user": {"type": "string"}, "roles": {"type": "array", "items": {"type": "string"}}}},
                    "example": {"token": "3f1c0d9e2b", "token_type": "Bearer", "expires_in": 60, "user": "ada",\#
         "roles": ["admin", "reader"]}}}},
                  "400": {"$ref": "#/components/responses/BadRequest"},
                  "401": {"$ref": "#/components/responses/Unauthorized"}
                }
              }
            },
            "/me": {
              "get": {
                "operationId": "me", "summary": "Who the bearer token is", "security": [{"bearer": []}],
                "responses": {
                  "200": {"description": "The signed-in user",\#
         "content": {"application/json": {"schema": {"type": "object",
                    "required": ["id", "username", "environment", "scopes"], "properties": {
                      "id": {"type": "integer"}, "username": {"type": "string"},\#
         "environment": {"$ref": "#/components/schemas/Environment"},
                      "scopes": {"type": "array", "items": {"type": "string"}}}},
                    "example": {"id": 1, "username": "ada", "environment": "local", "scopes": ["read", "write"]}}}},
                  "401": {"$ref": "#/components/responses/Unauthorized"}
                }
              }
            },
            "/session/login": {
              "post": {
                "operationId": "sessionLogin", "summary": "A login form: a session cookie and 303 to /session/home",
                "requestBody": {"required": true, "content": {"application/x-www-form-urlencoded": {"schema": {"type":\#
         "object",
                  "properties": {"user": {"type": "string"}, "password": {"type": "string"}}},\#
         "example": {"user": "ada", "password": "lovelace"}}}},
                "responses": {
                  "303": {"description": "Signed in", "headers": {
                    "Location": {"required": true, "schema": {"type": "string"}},
                    "Set-Cookie": {"required": true, "schema": {"type": "string"}}}},
                  "401": {"$ref": "#/components/responses/Unauthorized"}
                }
              }
            },
            "/session/home": {
              "get": {
                "operationId": "sessionHome", "summary": "The signed-in page (needs the session cookie)",
                "parameters": [{"name": "demo_session", "in": "cookie", "schema": {"type": "string"}}],
                "responses": {
                  "200": {"description": "Signed in", "content": {"application/json": {"schema": {"type": "object",\#
         "required": ["signedIn", "user", "via"],
                    "properties": {"signedIn": {"type": "boolean"}, "user": {"type": "string"},\#
         "via": {"type": "string"}}}}}},
                  "401": {"$ref": "#/components/responses/Unauthorized"}
                }
              }
            },
            "/digest/{algorithm}": {
              "get": {
                "operationId": "digest", "summary": "HTTP Digest authentication (ada / demo-digest-pass)",
                "parameters": [{"name": "algorithm", "in": "path", "required": true, "schema": {"enum": ["MD5",\#
         "SHA-256", "MD5-sess", "SHA-256-sess"]}}],
                "responses": {
                  "200": {"description": "Authenticated", "content": {"application/json": {"schema": {"type":\#
         "object", "required": ["authenticated", "user", "algorithm", "nc"],
                    "properties": {"authenticated": {"const": true}, "user": {"type": "string"},\#
         "algorithm": {"type": "string"}, "nc": {"type": "string"}}}}}},
                  "401": {"$ref": "#/components/responses/Unauthorized"},
                  "404": {"$ref": "#/components/responses/NotFound"}
                }
              }
            },
            "/cookies": {
              "get": {
                "operationId": "cookies", "summary": "The cookies the request carried",
                "responses": {"200": {"description": "The cookies by name",\#
         "content": {"application/json": {"schema": {"type": "object", "required": ["cookies"],
                  "properties": {"cookies": {"$ref": "#/components/schemas/Cookies"}}},\#
         "example": {"cookies": {"theme": "dark"}}}}}}
              }
            },
            "/cookies/set": {
              "get": {
                "operationId": "setCookies", "summary": "A Set-Cookie for each query item",
                "parameters": [{"name": "theme", "in": "query", "schema": {"type": "string",\#
         "pattern": "^[A-Za-z0-9]+$"}}],
                "responses": {"200": {"description": "The cookies set and the ones received",\#
         "content": {"application/json": {"schema": {"type": "object",
                  "required": ["set", "cookies"], "properties": {"set": {"$ref": "#/components/schemas/Cookies"},\#
         "cookies": {"$ref": "#/components/schemas/Cookies"}}},
                  "example": {"set": {"theme": "dark"}, "cookies": {}}}}}}
              }
            },
            "/echo": {
              "get": {
                "operationId": "echo", "summary": "What the request was: method, path, query arguments, headers, body",
                "responses": {"200": {"$ref": "#/components/responses/Echo"}}
              },
              "post": {
                "operationId": "echoPost", "summary": "What the request was, with its body",
                "requestBody": {"content": {"application/json": {"schema": {}},\#
         "text/plain": {"schema": {"type": "string"}}}},
                "responses": {"200": {"$ref": "#/components/responses/Echo"}}
              }
            },
            "/slow": {
              "get": {
                "operationId": "slow", "summary": "Answers after ms milliseconds (2000 by default, at most 120000)",
                "parameters": [{"name": "ms", "in": "query", "schema": {"type": "integer", "minimum": 0,\#
         "maximum": 50}, "example": 20}],
                "responses": {"200": {"description": "Slept",\#
         "content": {"application/json": {"schema": {"type": "object", "required": ["sleptMs", "environment"],
                  "properties": {"sleptMs": {"type": "integer", "minimum": 0},\#
         "environment": {"$ref": "#/components/schemas/Environment"}}},
                  "example": {"sleptMs": 20, "environment": "local"}}}}}
              }
            },
            "/large": {
              "get": {
                "operationId": "large", "summary": "A JSON array of items,\#
         written as it is generated (10000 by default, at most 10000000)",
                "parameters": [{"name": "items", "in": "query", "schema": {"type": "integer", "minimum": 0,\#
         "maximum": 200}, "example": 2}],
                "responses": {"200": {"description": "The items",\#
         "headers": {"X-Item-Count": {"schema": {"type": "string", "pattern": "^[0-9]+$"}, "example": "1"}},
                  "content": {"application/json": {"schema": {"type": "array", "items": {"type": "object",
                    "required": ["id", "name", "status", "environment", "score", "tags"], "properties": {
                      "id": {"type": "integer", "minimum": 1}, "name": {"type": "string"}, "status": {"enum": ["open",\#
         "closed", "pending"]},
                      "environment": {"$ref": "#/components/schemas/Environment"}, "score": {"type": "number"},
                      "tags": {"type": "array", "items": {"type": "string"}}}}},
                    "example": [{"id": 1, "name": "item 1", "status": "open", "environment": "local", "score": 0.0,\#
         "tags": ["t0", "t0"]}]}}}}
              }
            },
            "/error": {
              "get": {
                "operationId": "error", "summary": "Always 500, with an HTML page",
                "responses": {"500": {"description": "A server error page",\#
         "content": {"text/html": {"schema": {"type": "string"}}}}}
              }
            },
            "/rate-limited": {
              "get": {
                "operationId": "rateLimited", "summary": "Always 429, with Retry-After",
                "responses": {"429": {"description": "Too many requests",
                  "headers": {"Retry-After": {"required": true, "schema": {"type": "string"}},\#
         "X-RateLimit-Limit": {"schema": {"type": "string"}}, "X-RateLimit-Remaining": {"schema": {"type": "string"}}},
                  "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}}}
              }
            },
            "/redirect": {
              "get": {
                "operationId": "redirect", "summary": "A chain of n redirects (3 by default, at most 50)",
                "parameters": [{"name": "n", "in": "query", "schema": {"type": "integer", "minimum": 0, "maximum": 5},\#
         "example": 2}],
                "responses": {
                  "200": {"description": "The end of the chain",\#
         "content": {"application/json": {"schema": {"type": "object", "required": ["message", "environment"],
                    "properties": {"message": {"type": "string"},\#
         "environment": {"$ref": "#/components/schemas/Environment"}}}}}},
                  "302": {"description": "The next hop", "headers": {"Location": {"required": true,\#
         "schema": {"type": "string"}}},
                    "content": {"text/plain": {"schema": {"type": "string"}}}}
                }
              }
            },
            "/gzip": {
              "get": {
                "operationId": "gzip", "summary": "A JSON body sent gzip-encoded",
                "responses": {"200": {"description": "Compressed JSON",\#
         "headers": {"Content-Encoding": {"schema": {"const": "gzip"}}},
                  "content": {"application/json": {"schema": {"type": "object", "required": ["compressed",\#
         "environment", "message"],
                    "properties": {"compressed": {"const": true},\#
         "environment": {"$ref": "#/components/schemas/Environment"}, "message": {"type": "string"}}}}}}}
              }
            },
            "/image.png": {
              "get": {
                "operationId": "image", "summary": "A small PNG",
                "responses": {"200": {"description": "The image",\#
         "content": {"image/png": {"schema": {"type": "string", "contentMediaType": "image/png"}}}}}
              }
            },
            "/latin1": {
              "get": {
                "operationId": "latin1", "summary": "Text in ISO-8859-1",
                "responses": {"200": {"description": "Latin-1 text",\#
         "content": {"text/plain": {"schema": {"type": "string"}}}}}
              }
            },
            "/unicode": {
              "get": {
                "operationId": "unicode", "summary": "JSON with text in many scripts and emoji",
                "responses": {"200": {"description": "Unicode text",\#
         "content": {"application/json": {"schema": {"type": "object", "required": ["greeting", "languages", "emoji"],
                  "properties": {"greeting": {"type": "string"}, "emoji": {"type": "array",\#
         "items": {"type": "string"}},
                    "languages": {"type": "array", "items": {"type": "object", "required": ["code", "text"],\#
         "properties": {"code": {"type": "string"}, "text": {"type": "string"}}}}}}}}}}
              }
            },
            "/xml": {
              "get": {
                "operationId": "xml", "summary": "An XML document",
                "responses": {"200": {"description": "XML", "content": {"application/xml": {"schema": {"type":\#
         "string"}}}}}
              }
            },
            "/escape": {
              "get": {
                "operationId": "escape", "summary": "Text with terminal escape sequences (shown harmlessly by the\#
         explorer)",
                "responses": {"200": {"description": "Text", "content": {"text/plain": {"schema": {"type": "string"}}}}}
              }
            },
            "/status/{code}": {
              "get": {
                "operationId": "status", "summary": "Answers with the status asked for",
                "parameters": [{"name": "code", "in": "path", "required": true, "schema": {"type": "integer",\#
         "minimum": 200, "maximum": 599}, "example": 418}],
                "responses": {
                  "204": {"description": "No content"},
                  "304": {"description": "Not modified"},
                  "default": {"description": "The status and its reason phrase",\#
         "content": {"application/json": {"schema": {"type": "object", "required": ["status", "reason"],
                    "properties": {"status": {"type": "integer", "minimum": 200, "maximum": 599},\#
         "reason": {"type": "string"}}},
                    "example": {"status": 418, "reason": "I'm a teapot"}}}}
                }
              }
            },
            "/graphql": {
              "post": {
                "operationId": "graphql", "summary": "GraphQL over HTTP: users and posts",
                "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object",\#
         "required": ["query"], "properties": {
                  "query": {"type": "string"}, "operationName": {"type": ["string", "null"]},\#
         "variables": {"type": ["object", "null"]}}},
                  "example": {"query": "{ users { id name } }"}}}},
                "responses": {
                  "200": {"description": "The result: data, and errors for what failed",\#
         "content": {"application/json": {"schema": {"type": "object",
                    "properties": {"data": {"type": ["object", "null"]},\#
         "errors": {"$ref": "#/components/schemas/GraphQLErrors"}}}}}},
                  "400": {"description": "No query, or a body that is not a JSON object",\#
         "content": {"application/json": {"schema": {"type": "object",
                    "required": ["errors"], "properties": {"errors": {"$ref": "#/components/schemas/GraphQLErrors"}}}}}}
                }
              }
            }
          },
          "components": {
            "securitySchemes": {
              "bearer": {"type": "http", "scheme": "bearer", "description": "`demo-token`, or a token from POST /login"}
            },
            "parameters": {
              "id": {"name": "id", "in": "path", "required": true, "schema": {"type": "integer", "minimum": 1,\#
         "maximum": 1000000}, "example": 1},
              "page": {"name": "page", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 1000},\#
         "example": 1},
              "per_page": {"name": "per_page", "in": "query", "schema": {"type": "integer", "minimum": 1,\#
         "maximum": 100}, "example": 10}
            },
            "responses": {
              "BadRequest": {"description": "The body is not a JSON object",\#
         "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}},
              "NotFound": {"description": "No such item", "content": {"application/problem+json": {"schema": {"$ref":\#
         "#/components/schemas/Problem"},
                "example": {"type": "https://demo.explorer.example/problems/not-found", "title": "Not Found",\#
         "status": 404, "detail": "There is no user 99 in the local environment.", "instance": "/v1/users/99"}}}},
              "Unauthorized": {"description": "Missing or wrong credentials",\#
         "headers": {"WWW-Authenticate": {"schema": {"type": "string"}}},
                "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}},
              "ValidationFailed": {"description": "Some fields are invalid",\#
         "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/ValidationProblem"},
                "example": {"type": "https://demo.explorer.example/problems/validation-error",\#
         "title": "Your request is not valid", "status": 422, "detail": "1 field is invalid.",
                  "instance": "/v1/users", "errors": [{"field": "email", "pointer": "/email",\#
         "message": "must be an email address like ada@example.com"}]}}}},
              "Echo": {"description": "The request as received",\#
         "content": {"application/json": {"schema": {"type": "object",
                "required": ["method", "path", "url", "args", "environment", "headers", "bodySize"], "properties": {
                  "method": {"type": "string"}, "path": {"type": "string"}, "url": {"type": "string"},\#
         "args": {"type": "object"},
                  "environment": {"$ref": "#/components/schemas/Environment"}, "headers": {"type": "object",\#
         "additionalProperties": {"type": "string"}},
                  "bodySize": {"type": "integer", "minimum": 0}, "body": {"type": "string"},\#
         "bodyBase64": {"type": "string"}}}}}}
            },
            "schemas": {
              "Environment": {"enum": ["local", "staging", "production"]},
              "Role": {"enum": ["admin", "editor", "member"]},
              "User": {"type": "object", "required": ["id", "name", "username", "email", "role", "createdAt"],\#
         "properties": {
                "id": {"type": "integer", "minimum": 1}, "name": {"type": "string"}, "username": {"type": "string"},
                "email": {"type": "string"}, "role": {"$ref": "#/components/schemas/Role"},\#
         "createdAt": {"type": "string", "format": "date-time"}}},
              "NewUser": {"type": "object", "required": ["name", "email"], "properties": {
                "name": {"type": "string", "pattern": "\\S"}, "email": {"type": "string", "format": "email"},
                "username": {"type": "string"}, "role": {"$ref": "#/components/schemas/Role"}}},
              "UserChanges": {"type": "object", "properties": {
                "name": {"type": "string", "pattern": "\\S"}, "email": {"type": "string", "format": "email"},
                "username": {"type": "string"}, "role": {"$ref": "#/components/schemas/Role"}}},
              "Post": {"type": "object", "required": ["id", "userId", "title", "body", "tags", "published"],\#
         "properties": {
                "id": {"type": "integer", "minimum": 1}, "userId": {"type": "integer", "minimum": 1},\#
         "title": {"type": "string"},
                "body": {"type": "string"}, "tags": {"type": "array", "items": {"type": "string"}},\#
         "published": {"type": "boolean"}}},
              "NewPost": {"type": "object", "required": ["userId", "title"], "properties": {
                "userId": {"type": "integer", "minimum": 1, "maximum": 1000000}, "title": {"type": "string",\#
         "pattern": "\\S"},
                "body": {"type": "string"}, "tags": {"type": "array", "items": {"type": "string"}},\#
         "published": {"type": "boolean"}}},
              "PostChanges": {"type": "object", "properties": {
                "userId": {"type": "integer", "minimum": 1, "maximum": 1000000}, "title": {"type": "string",\#
         "pattern": "\\S"},
                "body": {"type": "string"}, "tags": {"type": "array", "items": {"type": "string"}},\#
         "published": {"type": "boolean"}}},
              "UserPage": {"type": "object", "required": ["environment", "page", "per_page", "total", "items"],\#
         "properties": {
                "environment": {"$ref": "#/components/schemas/Environment"}, "page": {"type": "integer", "minimum": 1},
                "per_page": {"type": "integer", "minimum": 1, "maximum": 100}, "total": {"type": "integer",\#
         "minimum": 0},
                "items": {"type": "array", "items": {"$ref": "#/components/schemas/User"}}}},
              "PostPage": {"type": "object", "required": ["environment", "page", "per_page", "total", "items"],\#
         "properties": {
                "environment": {"$ref": "#/components/schemas/Environment"}, "page": {"type": "integer", "minimum": 1},
                "per_page": {"type": "integer", "minimum": 1, "maximum": 100}, "total": {"type": "integer",\#
         "minimum": 0},
                "items": {"type": "array", "items": {"$ref": "#/components/schemas/Post"}}}},
              "Cookies": {"type": "object", "additionalProperties": {"type": "string"}},
              "Problem": {"type": "object", "required": ["type", "title", "status", "detail", "instance"],\#
         "properties": {
                "type": {"type": "string", "format": "uri"}, "title": {"type": "string"},\#
         "status": {"type": "integer", "minimum": 400, "maximum": 599},
                "detail": {"type": "string"}, "instance": {"type": "string"}}},
              "ValidationProblem": {"allOf": [{"$ref": "#/components/schemas/Problem"}, {"type": "object",\#
         "required": ["errors"], "properties": {
                "errors": {"type": "array", "minItems": 1, "items": {"type": "object", "required": ["field",\#
         "pointer", "message"], "properties": {
                  "field": {"type": "string"}, "pointer": {"type": "string"}, "message": {"type": "string"}}}}}}]},
              "GraphQLErrors": {"type": "array", "items": {"type": "object", "required": ["message"],\#
         "properties": {"message": {"type": "string"}}}}
            }
          }
        }
        """#
}
