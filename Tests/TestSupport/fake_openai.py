# Placeholder: the loopback test server lands in a later commit.
