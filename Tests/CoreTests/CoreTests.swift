// Tests of Core: the reducer, the places, the button gestures.
