package main

import _ "simctl/rulesets/cavaliers" // registers the cavaliers ruleset
