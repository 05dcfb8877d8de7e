"""What every area of the web app uses: rendering a page or a fragment, errors, input checks,
language, identity, security headers, rate limits, the library in the request's language.
Nothing here imports an area."""
