package main

import _ "simctl/rulesets/lotm" // registers the Lord of Mysteries referee
