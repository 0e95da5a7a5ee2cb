package main

import _ "simctl/rulesets/acks2" // registers the ACKS II referee
