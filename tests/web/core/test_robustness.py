"""Whatever arrives, the answer is never a server error."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.web.conftest import HTMX

text = st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=20)
paths = st.sampled_from(["/", "/scenarios", "/topics/reopening", "/topics/", "/drill/btn-faces-short-all-in",
                         "/drill/nope", "/rules", "/problems", "/start", "/healthz", "/static/nope.js"])


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    method=st.sampled_from(["GET", "POST", "PUT", "DELETE", "HEAD", "OPTIONS"]),
    path=paths,
    suffix=text,
    query=st.dictionaries(st.sampled_from(["level", "topic", "x"]), text, max_size=3),
    form=st.dictionaries(st.sampled_from(["csrf_token", "to_add", "legal", "acted", "x"]), text, max_size=4),
    htmx=st.booleans(),
    boosted=st.booleans(),
)
def test_no_request_gets_a_server_error(client, method, path, suffix, query, form, htmx, boosted):
    headers = {**(HTMX if htmx else {}), **({"HX-Boosted": "true"} if boosted else {})}
    target = path + (suffix.replace("?", "").replace("#", "") if path.endswith("/") else "")
    response = client.open(target, method=method, query_string=query, data=form or None, headers=headers)
    assert response.status_code < 500, (method, target, response.status_code)
    response.close()
