classdef Sized
    % Class and size constraints convert defaults and assigned values.
    properties
        N uint8 = 5
        V (1,3) double = 1
        Name char
    end
end
