classdef Sensor < handle
    properties
        Value = 0
    end
    events
        Changed
    end
    methods
        function set(obj, v)
            obj.Value = v;
            notify(obj, 'Changed');
        end
    end
end
